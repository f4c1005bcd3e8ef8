import Testing

@Test func placeholderOutlineServerTests() {}
