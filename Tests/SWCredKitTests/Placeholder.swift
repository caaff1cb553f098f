// SWCredKitTests placeholder.
