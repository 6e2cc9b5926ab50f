"""Rule `score_pool` (rules/score.smk): one paradigm's scores, cut out of its model's table (no model loaded).

A plain command (`python scripts/cut_scores.py POOL SCORES OUT LOG`), not a Snakemake `script:` or `run:`
job: those start Snakemake's machinery again for each of the 45 paradigms x models.  The log is
written by the same rublimp.runtime.rule_log as every other rule's (inputs, outputs, traceback).
"""
import sys

from rublimp.runtime import CommandJob, rule_log

pool, scores, out, log_path = sys.argv[1:5]
snakemake = CommandJob("score_pool", {"pool": pool, "scores": scores}, [out], log_path)

with rule_log(snakemake) as log:
    from rublimp.stages import pool_scores_stage

    log.info("score_pool: %d rows", pool_scores_stage(pool, scores, out))
