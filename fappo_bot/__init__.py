"""FAPPO Bot: play-by-post FAPPO games on Discord, with a pure rules core."""

__version__ = "0.1.0"
