// SWCredStoreTests placeholder.
