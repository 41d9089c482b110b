// The tests' one fixture locator lives in the StopSheetTestSupport target; every file of this
// target sees it without an import of its own.
@_exported import StopSheetTestSupport
