"""The Neo4j dialect's pure parts, which run without a server. The driver part and the dialect's writes
run live against FalkorDB's Bolt listener (test_neo4j_driver.py); Neo4j's own procedures and DDL only
in the contract suite's Neo4j leg, which needs a Neo4j server (tests/conftest.py ``NEO4J_HOW``)."""

from __future__ import annotations

from core.storage.cypher.neo4j import Neo4jDialect


def test_a_full_text_query_keeps_every_character_of_every_word_literal() -> None:
    query = Neo4jDialect.fulltext_query(["c++", "a:b", "(x)", "año"])
    assert query == ("ft_name:c\\+\\+^10 OR ft_body:c\\+\\+ OR ft_name:a\\:b^10 OR ft_body:a\\:b OR "
                     "ft_name:\\(x\\)^10 OR ft_body:\\(x\\) OR ft_name:año^10 OR ft_body:año")

