"""Evaluation on labelled data: verifier accuracy now, answer quality as it grows."""
