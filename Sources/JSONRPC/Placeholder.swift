// Placeholder until the JSONRPC target lands.
