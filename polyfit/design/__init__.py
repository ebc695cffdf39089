"""Designing puzzles to a goal: interlocking puzzles that come apart at a level
(:mod:`polyfit.design.interlocking`)."""
