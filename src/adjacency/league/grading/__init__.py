"""What a teacher grades a team's code by: its versions' code and digests (highlighting
and fingerprints, made off the request pool), the similarity of teams' code and the
corpus it is compared with, and the grading sheet."""
