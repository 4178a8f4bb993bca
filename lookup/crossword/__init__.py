"""The crossword wing: Scrabble, Wordfeud and Erudit (`lookup.crossword_game` hands out game.py's
CrosswordGame).

Floors, each importing only those below it and the shared ground (lookup/errors.py,
lookup/formats.py, lookup/gaddag.py, ...):
- board.py (squares, tile codes, the text format), tiles.py (a game's tile set: letters and
  codes, counts, unseen tiles, leave keys);
- rules.py (the rules file), move.py, scoring.py, cross_check.py, render.py;
- movegen.py (the readable move generator), engine_kernel.py (the compiled one's source),
  engine_numba.py, engine.py (the move engine), lexicon.py (the game's GADDAG and code maps);
- placement.py and turn.py (one placement's or one turn's checks and score), turn_kernel.py
  (the engine's search restricted to plays that cover given squares), turn_search.py (Erudit's
  multi-word turns: ClusterSearch), leaves.py and equity.py (what kept tiles are worth);
- endgame_kernel.py, then sim_kernel.py (the look-ahead's compiled loops; the simulation's
  searches run the endgame kernel's prepared_search), endgame.py and simulate.py (look-ahead
  on one position);
- game.py, the facade.
"""
