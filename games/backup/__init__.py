"""League backups: the document's JSON Schema (from the rules registry) and the checks a restore makes."""
