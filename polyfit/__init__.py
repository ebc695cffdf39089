"""polyfit: find, count and draw every way polyomino and polycube pieces fill a board."""

__version__ = "0.1.0"
