"""The knowledge graph on a Cypher graph server (FalkorDB today).

``store.CypherGraphStore`` and ``vectors.CypherVectorStore`` hold the logic in plain Cypher; what
differs from one server to another (connecting, transactions, index and procedure syntax) lives in
one small dialect module per server (``falkordb.py``). Callers go through ``create_stores()``.
"""
