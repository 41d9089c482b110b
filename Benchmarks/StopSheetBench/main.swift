// Placeholder: the load generator lands with `make bench`.
print("stopsheet-bench: not yet")
