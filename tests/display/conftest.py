import sys
from pathlib import Path

# The helper modules of this folder (fakes, htmlcheck) import by name.
sys.path.insert(0, str(Path(__file__).parent))
