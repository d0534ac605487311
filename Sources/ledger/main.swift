import Foundation
import LedgerCLI

exit(LedgerMain.run())
