import ActionsIcon from '@mui/icons-material/AssignmentTurnedIn';
import DevicesIcon from '@mui/icons-material/Memory';
import PlansIcon from '@mui/icons-material/EventRepeat';
import RecordsIcon from '@mui/icons-material/FactCheck';
import UsersIcon from '@mui/icons-material/People';
import TeamsIcon from '@mui/icons-material/Groups';
import WebhooksIcon from '@mui/icons-material/Webhook';
import ReportSubscriptionsIcon from '@mui/icons-material/ScheduleSend';
import { Admin, CustomRoutes, Resource, type ResourceProps } from 'react-admin';
import { Route } from 'react-router-dom';
import { ActionBoard } from './actions/action-board';
import { ActionEdit } from './actions/action-edit';
import { ActionShow } from './actions/action-show';
import { dataProvider } from './api/data-provider';
import { consoleQueryClient } from './api/query-client';
import { authProvider } from './auth/auth-provider';
import { ConsoleLoginPage } from './auth/console-login-page';
import { DeviceCreate, DeviceEdit, DeviceList } from './devices/device-screens';
import { i18nProvider } from './i18n/i18n-provider';
import { LabelSheet } from './labels/label-sheet';
import { ConsoleLayout } from './layout/console-layout';
import { consoleTheme } from './layout/console-theme';
import { MyNotificationsPage, UserNotificationsPage } from './notifications/notification-preferences-page';
import { PlanCreate, PlanEdit, PlanList } from './plans/plan-screens';
import { RecordList } from './records/record-list';
import { RecordShow } from './records/record-show';
import {
  ReportSubscriptionCreate,
  ReportSubscriptionEdit,
  ReportSubscriptionList,
} from './reports/report-subscription-screens';
import { TeamCreate, TeamEdit, TeamList } from './teams/team-screens';
import { TodayPage } from './today/today-page';
import { UserCreate, UserEdit, UserList } from './users/user-screens';
import { WebhookCreate, WebhookEdit, WebhookList } from './webhooks/webhook-screens';

/** The console's resources, in menu order: their screens, menu icon and how a record is named. */
const RESOURCES: ResourceProps[] = [
  {
    name: 'devices',
    list: DeviceList,
    create: DeviceCreate,
    edit: DeviceEdit,
    icon: DevicesIcon,
    recordRepresentation: 'code',
  },
  {
    name: 'plans',
    list: PlanList,
    create: PlanCreate,
    edit: PlanEdit,
    icon: PlansIcon,
    recordRepresentation: 'name',
  },
  { name: 'records', list: RecordList, show: RecordShow, icon: RecordsIcon },
  {
    name: 'actions',
    list: ActionBoard,
    show: ActionShow,
    edit: ActionEdit,
    icon: ActionsIcon,
    recordRepresentation: 'title',
  },
  {
    name: 'users',
    list: UserList,
    create: UserCreate,
    edit: UserEdit,
    icon: UsersIcon,
    recordRepresentation: 'username',
  },
  {
    name: 'teams',
    list: TeamList,
    create: TeamCreate,
    edit: TeamEdit,
    icon: TeamsIcon,
    recordRepresentation: 'name',
  },
  {
    name: 'webhooks',
    list: WebhookList,
    create: WebhookCreate,
    edit: WebhookEdit,
    icon: WebhooksIcon,
    recordRepresentation: 'url',
  },
  {
    name: 'report-subscriptions',
    list: ReportSubscriptionList,
    create: ReportSubscriptionCreate,
    edit: ReportSubscriptionEdit,
    icon: ReportSubscriptionsIcon,
  },
  // No screens: check items are edited in their device's form, and named in references.
  { name: 'items', recordRepresentation: 'name' },
];

const queryClient = consoleQueryClient();

/**
 * The supervisor console: Today (the dashboard), Devices, Plans, Records, Actions, Users, Teams, Webhooks, Monthly reports; notification
 * preferences (the signed-in person's, and a user's); QR labels (a printable sheet).
 */
export function ConsoleApp() {
  return (
    <Admin
      title="FieldOps"
      dataProvider={dataProvider}
      queryClient={queryClient}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      layout={ConsoleLayout}
      loginPage={ConsoleLoginPage}
      dashboard={TodayPage}
      theme={consoleTheme}
      requireAuth
      disableTelemetry
    >
      {RESOURCES.map((resource) => (
        <Resource key={resource.name} {...resource} />
      ))}
      <CustomRoutes>
        <Route path="/notifications" element={<MyNotificationsPage />} />
        <Route path="/users/:id/notifications" element={<UserNotificationsPage />} />
      </CustomRoutes>
      <CustomRoutes noLayout>
        <Route path="/labels" element={<LabelSheet />} />
      </CustomRoutes>
    </Admin>
  );
}
