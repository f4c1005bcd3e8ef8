print("outline-server: not built yet")
