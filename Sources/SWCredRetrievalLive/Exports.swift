// What importing `SWCredRetrievalLive` brings with it: `SWCredRetrieval`, whose `LiveRetrieval` it
// extends (issue 29; PackageTests checks that every `public import` of a swcred module is re-exported).
@_exported public import SWCredRetrieval
