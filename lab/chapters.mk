# The chapters the lab builds, tests and documents: one folder each under lab/ (DESIGN.md,
# "Adding a chapter"). A new chapter is one word on this line.
CHAPTERS := ch30
