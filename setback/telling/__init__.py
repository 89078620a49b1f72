"""A game told in words: the lines of a log, hand summaries and rules text, shared by the
command line, the text client, the bots' commands and the server's history."""
