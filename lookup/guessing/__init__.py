"""The guessing wing: Wordle and Nerdle (`lookup.guessing_game` hands out game.py's GuessingGame).

Floors: feedback.py (the feedback of a guess against an answer, the matrix reader), splits.py
(how a guess splits the candidates), equations.py (Nerdle's equation rules), tree.py (decision
trees); game.py, the facade.
"""
