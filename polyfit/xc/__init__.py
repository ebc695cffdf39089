"""Exact cover without geometry: the problem model, Knuth's text format, and the search's shape.

- :mod:`polyfit.xc.problem`: items (primary with bounds, secondary), options, and the backend
  protocol every solver follows;
- :mod:`polyfit.xc.dlxformat`: Knuth's DLX text format, read and written;
- :mod:`polyfit.xc.branching`: the rule every search here branches by (fewest live options);
- :mod:`polyfit.xc.jobs`: a search split into jobs (the branches at some depth);
- :mod:`polyfit.xc.estimate`: Knuth's random-probe estimate of a search's size;
- :mod:`polyfit.xc.trace`: the search step by step (for the animation).
"""
