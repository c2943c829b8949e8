import sys
from pathlib import Path

# Helper modules at the top of tests/ (corpus) import by name from any folder.
sys.path.insert(0, str(Path(__file__).parent))
