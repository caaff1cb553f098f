// SWCredPasswordsTests placeholder.
