"""Groups of options that several commands share, declared once.

A group is a function whose parameters are options (typer style: each default a
``typer.Option``) and which returns one object made of them. :func:`takes` adds a group's
options to a command and calls the command with that object, so ``solve`` and ``render`` list
the picture options in the same words without repeating twenty parameters, and a command's own
signature shows only what is its own.
"""

from __future__ import annotations

import functools
import inspect


def takes(**groups):
    """Decorate a command: ``@takes(search=search_options)`` adds the parameters of
    ``search_options`` to the command's options and calls the command with
    ``search=search_options(...)``. A group may take an earlier group of the same call by its
    name (``@takes(pictures=picture_options, files=file_options)``, where ``file_options`` has a
    parameter ``pictures``)."""

    def decorate(command):
        signature = inspect.signature(command, eval_str=True)
        own = [p for name, p in signature.parameters.items() if name not in groups]
        options = {
            name: [p for p in inspect.signature(group, eval_str=True).parameters.values() if p.name not in groups]
            for name, group in groups.items()
        }

        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            made = {}
            for name, group in groups.items():
                taken = {p.name: kwargs.pop(p.name) for p in options[name]}
                earlier = inspect.signature(group).parameters.keys() & made.keys()
                made[name] = group(**taken, **{g: made[g] for g in earlier})
            return command(*args, **kwargs, **made)

        parameters = own + [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for ps in options.values() for p in ps]
        wrapper.__signature__ = signature.replace(parameters=parameters)
        wrapper.__annotations__ = {p.name: p.annotation for p in parameters}
        del wrapper.__wrapped__  # typer must read the new signature, not the command's own
        return wrapper

    return decorate
