import sys
from pathlib import Path

# The helper module of this folder (tosca_fixtures) imports by name.
sys.path.insert(0, str(Path(__file__).parent))
