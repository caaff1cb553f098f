// SWCredTLSTestServer placeholder.
