"""polyfit studio: design puzzles in the browser (``pip install 'polyfit[studio]'``).

A local web server (:mod:`polyfit.studio.app`, Starlette on uvicorn) serves one static page
(``static/``: HTML, CSS, JavaScript and a vendored three.js, nothing from the network) and the
JSON API it calls, documented in docs/studio.md. The work runs in worker processes
(:mod:`polyfit.studio.jobs`) on the public API (:mod:`polyfit.studio.tasks`).
"""
