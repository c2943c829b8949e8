import sys
from pathlib import Path

# The helper module of this folder (ci_reports) imports by name.
sys.path.insert(0, str(Path(__file__).parent))
