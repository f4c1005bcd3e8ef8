import Testing

@Test func placeholderOutlineModelTests() {}
