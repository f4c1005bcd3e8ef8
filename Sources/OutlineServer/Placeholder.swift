// Placeholder until the OutlineServer target lands.
