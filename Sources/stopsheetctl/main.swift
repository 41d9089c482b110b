print("stopsheetctl")
