#!/usr/bin/python3
"""Runs Orca (/usr/bin/orca, with the arguments given) with its debug log flushed after every
line: Orca writes it through a buffered file, so a test reading what it spoke would otherwise
see a phrase only once kilobytes more of the log had come."""
import runpy
import sys

import orca.debug as debug

_println = debug.println


def println(*args, **kwargs):
    _println(*args, **kwargs)
    if debug.debugFile:
        debug.debugFile.flush()


debug.println = println
sys.argv = ["/usr/bin/orca"] + sys.argv[1:]
runpy.run_path("/usr/bin/orca", run_name="__main__")
