import Testing

@Test func placeholderJSONRPCTests() {}
