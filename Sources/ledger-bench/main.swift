import Foundation
import LedgerBench

exit(BenchMain.run())
