// Placeholder until the OutlineYAML target lands.
