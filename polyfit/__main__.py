"""``python -m polyfit`` and the ``polyfit`` command: the command line, started so that a Ctrl-C
while it is still loading is one line and exit code 130, never a traceback."""

import sys


def main():
    try:
        from polyfit.cli import main as command_line
    except KeyboardInterrupt:
        sys.stderr.write("polyfit: interrupted\n")
        sys.exit(130)
    command_line()


if __name__ == "__main__":
    main()
