"""Measuring truecasing against human-cased subtitles: metrics, baselines, reports."""
