"""rublimp: decontaminated Russian minimal-pair benchmarks from raw text."""

__version__ = "0.1.0"
