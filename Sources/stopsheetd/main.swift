print("stopsheetd")
