// The `swcred-fetch` executable: the same commands as `swcred`, with HTTPS retrieval
// (SWCredRetrievalLive: async-http-client, SwiftNIO, BoringSSL) installed. `swcred` hands it the
// command lines that fetch; it runs any command line itself.
import SWCredCLI
import SWCredRetrieval
import SWCredRetrievalLive

LiveRetrieval.installHTTPS()
await SWCredProgram.main()
