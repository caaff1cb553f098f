// SWCredDaemon: module placeholder.
