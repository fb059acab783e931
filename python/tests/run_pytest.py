"""CTest's entry to the Python tests: pytest on this folder, or exit 77 (skipped) without pytest or NumPy."""
import os
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print(f"skipped: {e} (cmake/deps/bootstrap.sh installs python3-pytest and python3-numpy)")
    sys.exit(77)
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", os.path.dirname(os.path.abspath(__file__))] + sys.argv[1:]))
