// SWCredRetrievalTests placeholder.
