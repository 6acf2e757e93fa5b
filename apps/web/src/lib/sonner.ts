/*
 * sonner with its stylesheet, the one module `loadSonner` imports: the stylesheet (≈ 2.5 KB gzip)
 * then arrives with the first toast, as a file (a strict CSP blocks the <style> sonner would inject),
 * rather than in the stylesheet that blocks every page's first paint (decision 033). index.css's
 * overrides of its colours outrank it whatever the order (`html [data-sonner-toaster]…`).
 */
import 'sonner/dist/styles.css';

export { toast, Toaster } from 'sonner';
