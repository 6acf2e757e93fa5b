// Temporary alias of the old specifier @skillhive/shared/stats; removed by the specifier rename.
export { AdminStats, ClassEarnings, MonthRevenue, TeacherStats } from '../contracts/stats.ts';
export { STATS_MONTHS } from '../rules/constants.ts';
