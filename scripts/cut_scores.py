"""Rule `score_pool` (rules/score.smk): one paradigm's scores, cut out of its model's table (no model loaded).

A plain command (`python scripts/cut_scores.py POOL SCORES OUT LOG`), not a Snakemake `script:` or `run:`
job: those start Snakemake's machinery again for each of the 45 paradigms x models.
"""
import sys

from rublimp.runtime import setup_logging
from rublimp.stages import pool_scores_stage

pool, scores, out, log_path = sys.argv[1:5]
log = setup_logging(log_path)
log.info("score_pool: %d rows", pool_scores_stage(pool, scores, out))
