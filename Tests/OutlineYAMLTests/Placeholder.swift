import Testing

@Test func placeholderOutlineYAMLTests() {}
