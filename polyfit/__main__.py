"""``python -m polyfit`` and the ``polyfit`` command: the command line, started so that a Ctrl-C
while it is still loading is one line and exit code 130, never a traceback."""

import gc
import sys


def main():
    # Loading the command line makes tens of thousands of objects (functions, classes, the
    # app) that live as long as the process: at Python's default threshold the collector ran
    # about 30 times over them while they loaded (10 to 20 ms). It is off until they are
    # loaded; polyfit.cli's main freezes them out of its scans and turns it back on.
    gc.disable()
    try:
        from polyfit.cli import main as command_line
    except KeyboardInterrupt:
        sys.stderr.write("polyfit: interrupted\n")
        sys.exit(130)
    command_line()


if __name__ == "__main__":
    main()
