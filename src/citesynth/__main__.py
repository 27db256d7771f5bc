"""`python -m citesynth` runs the command line."""

from citesynth.cli import main

main()
