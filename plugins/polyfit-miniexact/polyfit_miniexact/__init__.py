"""A polyfit backend that hands the exact cover problem to miniexact (PyPI: ``miniexact``).

miniexact is an independent C implementation of Knuth's Algorithms X, C and M; wrapping it
proves the backend interface on code polyfit did not write, and lets ``--backend`` compare.
It reports no node counts, so ``nodes`` stays 0.
"""

from polyfit import hookimpl

__version__ = "0.1.0"

SOLUTION = 10  # miniexact's solve() returns this while it finds solutions


class MiniexactBackend:
    name = "miniexact"
    summary = "miniexact's Algorithm X (C, from PyPI), through its Python bindings"
    capabilities = frozenset({"secondary"})

    def unavailable_reason(self):
        try:
            import miniexact  # noqa: F401
        except ImportError as exc:
            return f"the miniexact package is not installed ({exc})"
        return None

    def solutions(self, problem, stats):
        import miniexact

        solver = miniexact.miniexacts_x()
        items = [solver.primary(name) for name in problem.primary]
        items += [solver.secondary(name) for name in problem.secondary]
        # miniexact numbers the options it is given from 1; options without items are left out.
        given = []
        for index, option in enumerate(problem.options):
            if option:
                solver.add([items[i] for i in option])
                given.append(index)
        if not problem.primary:
            stats.solutions += 1
            yield ()
            return
        while solver.solve() == SOLUTION:
            stats.solutions += 1
            yield tuple(given[k - 1] for k in solver.selected_options())


@hookimpl
def register_backends(register):
    register(MiniexactBackend())
