"""Partitioned runs and agreement at scale on Spark (the only package that imports pyspark)."""
