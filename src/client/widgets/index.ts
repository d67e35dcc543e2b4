import { Board, notice } from '../board'
import type { ScreenContext } from '../context'
import type { Shell } from '../shell'
import type { AnnouncementsData, EventsData, ScheduleData, TransportData, WidgetRead, WidgetType } from '../types'
import { AnnouncementsView } from './announcements'
import { EventsView } from './events'
import { ScheduleView } from './schedule'
import { TransportView } from './transport'
import type { ViewEnv, WidgetView } from './view'

/** A widget screen: the view of the widget's type, fed every snapshot. */
export class WidgetBoard extends Board<WidgetRead> {
  private view: WidgetView<never> | null = null
  private viewType: WidgetType | null = null
  private readonly env: ViewEnv

  constructor(ctx: ScreenContext, shell: Shell, widgetId: string) {
    super(ctx, shell, 'widget', widgetId, `/api/display/v1/widgets/${encodeURIComponent(widgetId)}`, () => ctx.labels.unknownWidget)
    this.env = { ctx, shell, name: () => (this.data?.name ?? '') }
  }

  protected draw(read: WidgetRead | null): void {
    if (read === null || read.data === null) {
      this.shell.setTitle(read?.name ?? '')
      this.dropView()
      return this.shell.setContent(notice(this.ctx.labels.noContent))
    }
    // The payload's locale sets the words and direction, unless the URL chose a language;
    // a change redraws through the language listener, so this pass stops here.
    if (this.ctx.adoptDataLocale(read.data.locale)) return
    if (this.viewType !== read.widgetType) {
      this.dropView()
      this.view = createView(read.widgetType, this.env)
      this.viewType = read.widgetType
    }
    this.view?.update(read.data as never)
  }

  private dropView(): void {
    this.view?.dispose()
    this.view = null
    this.viewType = null
  }
}

function createView(type: WidgetType, env: ViewEnv): WidgetView<never> | null {
  switch (type) {
    case 'TODAYS_SCHEDULE':
      return new ScheduleView(env) as WidgetView<ScheduleData> as WidgetView<never>
    case 'ANNOUNCEMENTS':
      return new AnnouncementsView(env) as WidgetView<AnnouncementsData> as WidgetView<never>
    case 'EVENTS':
      return new EventsView(env) as WidgetView<EventsData> as WidgetView<never>
    case 'TRANSPORT_BOARD':
      return new TransportView(env) as WidgetView<TransportData> as WidgetView<never>
    default:
      return null
  }
}
