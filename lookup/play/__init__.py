"""The play wing: whole crossword games between bots, above the crossword wing.

game.py (a game being played: bag, racks, turns, the end), players.py (the bots: greedy, by
equity, by simulation), match.py (mirrored pairs between two bots, `wordpack bots`).
"""
