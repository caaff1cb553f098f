// SWCredAssociationTests placeholder.
