"""Search: text folding, full text, and (with embeddings) hybrid search with limbic scoring."""
